c a small network: max flow 5
p max 4 5
n 1 s
n 4 t
a 1 2 3
a 1 3 2
a 2 3 1
a 2 4 2
a 3 4 3
----
c wrong: a flow over capacity
s 5
f 1 2 9
f 1 3 2
f 2 3 1
f 2 4 2
f 3 4 3
n 1
