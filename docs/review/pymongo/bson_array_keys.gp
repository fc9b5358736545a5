set terminal pngcairo noenhanced size 1200,480 font ',10'
set output 'docs/review/pymongo/bson_array_keys.png'
set multiplot layout 1,2 title 'bson_array_keys: pymongo (before) vs pymongo (after)'
set logscale xy
set grid
set key top left
set xlabel 'elements'
set datafile missing '-1'
set ylabel 'peak heap (bytes)'
plot 'docs/review/pymongo/bson_array_keys.dat' using 1:3 with linespoints title 'pymongo (before)', '' using 1:4 with linespoints title 'pymongo (after)', '' using 1:2 with lines dashtype 2 title 'output size'
set ylabel 'time per call (ns)'
plot 'docs/review/pymongo/bson_array_keys.dat' using 1:($5>0?$5:1/0) with linespoints title 'pymongo (before)', '' using 1:($6>0?$6:1/0) with linespoints title 'pymongo (after)'
unset multiplot
