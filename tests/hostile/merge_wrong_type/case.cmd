# run: tabula merge a.json b.json --csv out.csv --json out.json
# exit: 1
# stderr: `b.json`:5:18
# no-writes: out.csv
# no-writes: out.json
