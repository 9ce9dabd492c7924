import os, sys, time
sys.path.insert(0, os.path.dirname(__file__))
import python_peers as pp
import portaflow
n, s, t, tails, heads, caps = pp.load(sys.argv[1])
csr = pp.csr_of(n, tails, heads, caps)
for i in range(3):
    t0 = time.perf_counter()
    r = portaflow.maximum_flow(csr, s, t, backend="cuda")
    r.flow
    print("maximum_flow", round(time.perf_counter() - t0, 4), r.flow_value, r.times, flush=True)
for i in range(3):
    print("value only", round(pp.run_value_only(csr, s, t, "cuda", 1), 4), flush=True)
