c two sources, two sinks, real capacities
p max 6 6
n 1 s
n 2 s
n 5 t
n 6 t
a 1 3 2.5
a 2 3 1
a 3 4 3.25
a 4 5 1
a 4 6 2
a 2 4 0.5
----
c scale 2^-57 error 0
s 3
f 1 3 1.5
f 2 3 1
f 3 4 2.5
f 4 5 1
f 4 6 2
f 2 4 0.5
n 1
n 2
n 3
n 4
