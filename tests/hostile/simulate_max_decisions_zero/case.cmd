# run: tabula simulate $NIM --games 1 --max-decisions 0
# exit: 2
# stderr: the limit must be at least 1
