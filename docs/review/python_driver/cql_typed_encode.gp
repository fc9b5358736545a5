set terminal pngcairo noenhanced size 1200,480 font ',10'
set output 'docs/review/python_driver/cql_typed_encode.png'
set multiplot layout 1,2 title 'cql_typed_encode: python_cassandra (before) vs python_cassandra_join (after)'
set logscale xy
set grid
set key top left
set xlabel 'elements'
set datafile missing '-1'
set ylabel 'peak heap (bytes)'
plot 'docs/review/python_driver/cql_typed_encode.dat' using 1:3 with linespoints title 'python_cassandra (before)', '' using 1:4 with linespoints title 'python_cassandra_join (after)', '' using 1:2 with lines dashtype 2 title 'output size'
set ylabel 'time per call (ns)'
plot 'docs/review/python_driver/cql_typed_encode.dat' using 1:($5>0?$5:1/0) with linespoints title 'python_cassandra (before)', '' using 1:($6>0?$6:1/0) with linespoints title 'python_cassandra_join (after)'
unset multiplot
