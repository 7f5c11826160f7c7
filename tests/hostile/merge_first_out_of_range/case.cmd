# run: tabula merge a.json b.json --csv out.csv --json out.json
# exit: 1
# stderr: its first player 7 is not a seat
# no-writes: out.csv
# no-writes: out.json
