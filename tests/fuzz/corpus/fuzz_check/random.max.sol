c portaflow gen random (seed 5) 12 40
p max 12 40
n 1 s
n 12 t
a 1 8 13
a 10 12 16
a 10 5 7
a 4 5 15
a 11 9 17
a 5 9 9
a 1 8 18
a 2 12 17
a 5 10 8
a 8 5 13
a 4 7 12
a 2 12 4
a 1 12 8
a 1 3 12
a 9 8 8
a 10 12 11
a 1 5 5
a 10 8 20
a 3 4 20
a 5 12 17
a 1 1 20
a 7 7 3
a 2 5 6
a 9 11 1
a 3 6 9
a 1 3 13
a 1 12 5
a 10 11 20
a 3 3 6
a 6 6 5
a 5 10 14
a 6 2 18
a 1 6 1
a 2 3 3
a 4 11 5
a 6 8 16
a 10 4 2
a 10 3 9
a 8 1 6
a 2 12 10
----
c portaflow 0.1.0
c backend seq
c device host CPU, 1 thread
c vertices 12 arcs 40
c read_s 0.000029
c solve_s 0.044490
c times setup_s 0.044480 upload_s 0.000000 push_relabel_s 0.000002 global_relabel_s 0.000001 phase2_s 0.000001 download_s 0.000000
c rounds 17 global_relabels 2 device_bytes 0
s 56
f 1 8 0
f 10 12 16
f 10 5 0
f 4 5 15
f 11 9 0
f 5 9 0
f 1 8 13
f 2 12 10
f 5 10 8
f 8 5 13
f 4 7 0
f 2 12 0
f 1 12 8
f 1 3 11
f 9 8 0
f 10 12 0
f 1 5 5
f 10 8 0
f 3 4 15
f 5 12 17
f 1 1 0
f 7 7 0
f 2 5 0
f 9 11 0
f 3 6 9
f 1 3 13
f 1 12 5
f 10 11 0
f 3 3 0
f 6 6 0
f 5 10 8
f 6 2 10
f 1 6 1
f 2 3 0
f 4 11 0
f 6 8 0
f 10 4 0
f 10 3 0
f 8 1 0
f 2 12 0
n 1
n 3
n 4
n 7
n 8
n 9
n 11
