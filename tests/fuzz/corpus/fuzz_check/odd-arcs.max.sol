c parallel arcs, a self-loop, zero capacities, arcs into s and out of t
p max 5 8
n 5 s
n 2 t
a 5 1 7
a 5 1 1
a 1 1 9
a 1 2 0
a 1 3 4
a 3 2 4
a 2 5 3
a 4 5 6
----
c portaflow 0.1.0
c backend seq
c device host CPU, 1 thread
c vertices 5 arcs 8
c read_s 0.000033
c solve_s 0.025572
c times setup_s 0.025567 upload_s 0.000000 push_relabel_s 0.000001 global_relabel_s 0.000000 phase2_s 0.000000 download_s 0.000000
c rounds 2 global_relabels 1 device_bytes 0
s 4
f 5 1 3
f 5 1 1
f 1 1 0
f 1 2 0
f 1 3 4
f 3 2 4
f 2 5 0
f 4 5 0
n 1
n 3
n 4
n 5
