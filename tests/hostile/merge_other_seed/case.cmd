# run: tabula merge a.json b.json --csv out.csv --json out.json
# exit: 1
# stderr: `b.json` is not from the same run as `a.json`: its seed is 5, not 0
# no-writes: out.csv
# no-writes: out.json
