# run: tabula simulate $NIM --games 2 --max-decisions 1 --csv out.csv
# exit: 0
# stderr: 2 games had not ended after 1 decision and
# stdout: unfinished:
# writes: out.csv
