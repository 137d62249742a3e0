# The README's self-collision plot: gnuplot this from the repository root after `Simulator collision --output
# Build/Simulation/collision` (it writes the distance.csv files; SelfCollisionProvider's README has the command).
set terminal pngcairo size 1200,380 font ",10"
set output "Util/Simulator/Docs/self-collision-comparison.png"
set datafile separator ","
set multiplot layout 1,3 title "SelfCollisionProvider: smallest signed pair distance at the measured posture (seed 1)"
set xlabel "time (s)"
set ylabel "min distance (mm)"
set grid
set key bottom left
set yrange [-80:30]
do for [s in "collisionarm collisionhead collisionlegs"] {
  set title s
  plot sprintf("Build/Simulation/collision/%s-off-1/distance.csv", s) every ::1 using 1:2 with lines lw 2 lc rgb "#d62728" title "stage off", \
       sprintf("Build/Simulation/collision/%s-on-1/distance.csv", s) every ::1 using 1:2 with lines lw 2 lc rgb "#2ca02c" title "stage on", \
       0 with lines dt 2 lc rgb "black" notitle
}
unset multiplot
