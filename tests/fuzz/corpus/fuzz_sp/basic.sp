c a small digraph
p sp 4 5
a 1 2 4
a 2 3 -1
a 1 3 5
a 3 4 2
a 4 1 7
