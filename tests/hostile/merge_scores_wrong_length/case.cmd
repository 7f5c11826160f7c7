# run: tabula merge a.json b.json --csv out.csv --json out.json
# exit: 1
# stderr: `b.json`, game 4: it has 3 scores for 2 players
# no-writes: out.csv
# no-writes: out.json
