# run: tabula merge a.json b.json --csv out.csv --json out.json
# exit: 1
# stderr: `b.json`:1:19: not the JSON output of `tabula simulate`
# no-writes: out.csv
# no-writes: out.json
