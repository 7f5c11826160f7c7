# run: tabula simulate $NIM --games 3 --jobs 0
# exit: 1
# stderr: --jobs must be at least 1
