# run: tabula merge a.json b.json --csv out.csv --json out.json
# exit: 0
# stdout: merged 2 files into a run of 6 games
# writes: out.csv
