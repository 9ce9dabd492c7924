c portaflow gen sp (seed 2) 10 --arcs 30 --min 1 --max 1000 --negative
c weights c(u,v) + p(u) - p(v), c in [min, max], p in [0, max]: no negative cycle
c weights produced: [-128, 1415]
p sp 10 30
a 1 7 124
a 2 1 1112
a 2 3 1205
a 2 6 682
a 2 10 868
a 3 1 155
a 3 4 71
a 3 6 769
a 3 8 607
a 4 3 1415
a 4 5 676
a 4 6 929
a 4 7 304
a 5 1 859
a 5 9 1053
a 5 10 392
a 6 1 486
a 6 9 386
a 6 10 -128
a 7 6 1175
a 7 9 970
a 8 1 911
a 9 2 567
a 9 4 110
a 9 5 455
a 9 7 63
a 9 8 698
a 10 5 503
a 10 6 974
a 10 9 606
