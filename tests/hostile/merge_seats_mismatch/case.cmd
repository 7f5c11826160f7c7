# run: tabula merge a.json b.json --csv out.csv --json out.json
# exit: 1
# stderr: it names 1 seats for 2 players
# no-writes: out.csv
# no-writes: out.json
