#!/bin/bash
# temporary: the read-back after NOTES 56, the hybrid's traces for the plot
out=$OUT/r; mkdir -p $out
bash bench/gpu/setup.sh > $out/setup.log 2>&1
b=build-gpu/portaflow
meson test -C build-gpu session-cuda session-opencl driver-cuda steps-cuda > $out/tests.log 2>&1
for f in rlg_1024x1024 rmf_64x64 grid2d_2048; do
  p=$(bash bench/instances.sh $b $f)
  $b gen updates $p --fraction 0.001 --batches 5 --seed 1 -o /tmp/u_$f.txt
  for be in cuda opencl; do
    [ $f = grid2d_2048 ] && [ $be = opencl ] && continue
    PORTAFLOW_TRACE=1 $b session -b $be --json $p /tmp/u_$f.txt > $out/s_${f}_$be.log 2>&1
  done
done
bash bench/hybrid.sh --bin $b --out $out/h --reps 1 --limit 60 --engines "auto cuda omp" \
  $(bash bench/instances.sh $b rmf_64x64 rmf_128x128 rlg_1024x1024 rlg_1024x1536 grid3d_128) > $out/h.log 2>&1
cd $OUT && tar czf r.tgz r && rm -rf r
