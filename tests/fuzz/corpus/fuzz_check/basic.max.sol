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
c portaflow 0.1.0
c backend seq
c device host CPU, 1 thread
c vertices 4 arcs 5
c read_s 0.000031
c solve_s 0.025293
c times setup_s 0.025289 upload_s 0.000000 push_relabel_s 0.000001 global_relabel_s 0.000000 phase2_s 0.000000 download_s 0.000000
c rounds 4 global_relabels 1 device_bytes 0
s 5
f 1 2 3
f 1 3 2
f 2 3 1
f 2 4 2
f 3 4 3
n 1
n 2
n 3
