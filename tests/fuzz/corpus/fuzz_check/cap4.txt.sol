4
0 5 3 0
0 0 2 4
0 0 0 6
0 0 0 0
----
c portaflow 0.1.0
c backend seq
c device host CPU, 1 thread
c vertices 4 arcs 5
c read_s 0.000028
c solve_s 0.027194
c times setup_s 0.027189 upload_s 0.000000 push_relabel_s 0.000001 global_relabel_s 0.000000 phase2_s 0.000000 download_s 0.000000
c rounds 4 global_relabels 1 device_bytes 0
s 8
f 1 2 5
f 1 3 3
f 2 3 1
f 2 4 4
f 3 4 4
n 1
