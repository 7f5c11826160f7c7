# run: tabula merge a.json b.json --csv out.csv --json out.json
# exit: 1
# stderr: its decision limit is 10, not 1000000
# no-writes: out.csv
# no-writes: out.json
