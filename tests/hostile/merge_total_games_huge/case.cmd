# run: tabula merge a.json --csv out.csv --json out.json
# exit: 1
# stderr: 18446744073709551612 of the run's 18446744073709551615 games are in no file
# no-writes: out.csv
# no-writes: out.json
