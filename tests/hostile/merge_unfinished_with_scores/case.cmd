# run: tabula merge a.json b.json --csv out.csv --json out.json
# exit: 1
# stderr: it is marked unfinished but has scores or winners
# no-writes: out.csv
# no-writes: out.json
