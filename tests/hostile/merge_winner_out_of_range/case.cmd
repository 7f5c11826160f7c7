# run: tabula merge a.json b.json --csv out.csv --json out.json
# exit: 1
# stderr: `b.json`, game 3: its winner 99 is not a seat (seats are 0 to 1)
# absent: p100
# no-writes: out.csv
# no-writes: out.json
