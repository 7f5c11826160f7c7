# run: tabula simulate $NIM --games 300 --json out.json --csv out.csv
# exit: 0
# close-stdout: 1
# writes: out.json
# writes: out.csv
# absent: panicked
