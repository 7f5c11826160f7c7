# run: tabula merge a.json b.json --csv out.csv --json out.json
# exit: 1
# stderr: `b.json` holds game 99, but the run has only 6 games
# no-writes: out.csv
# no-writes: out.json
