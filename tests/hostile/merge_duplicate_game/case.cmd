# run: tabula merge a.json b.json --csv out.csv --json out.json
# exit: 1
# stderr: game 3 is twice in `b.json`
# no-writes: out.csv
# no-writes: out.json
