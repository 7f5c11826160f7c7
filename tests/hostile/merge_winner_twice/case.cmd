# run: tabula merge a.json b.json --csv out.csv --json out.json
# exit: 1
# stderr: its winner 1 is listed twice
# no-writes: out.csv
# no-writes: out.json
