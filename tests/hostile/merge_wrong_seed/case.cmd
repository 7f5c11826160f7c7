# run: tabula merge a.json b.json --csv out.csv --json out.json
# exit: 1
# stderr: `b.json`: game 3 has seed 1, not the seed
# no-writes: out.csv
# no-writes: out.json
