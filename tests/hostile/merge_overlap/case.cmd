# run: tabula merge a.json b.json c.json --csv out.csv --json out.json
# exit: 1
# stderr: game 3 is in both `b.json` and `c.json`
# no-writes: out.csv
# no-writes: out.json
