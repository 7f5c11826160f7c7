# run: tabula simulate $NIM --games 0 --json out.json --csv out.csv --report out.html
# exit: 0
# stdout: 0 games
# writes: out.json
# writes: out.html
