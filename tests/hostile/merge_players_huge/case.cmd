# run: tabula merge a.json b.json --csv out.csv --json out.json
# exit: 1
# stderr: `b.json` is not a report of `tabula simulate`: it claims 1000000000000 players
# no-writes: out.csv
# no-writes: out.json
