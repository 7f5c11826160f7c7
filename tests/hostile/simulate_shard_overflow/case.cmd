# run: tabula simulate $NIM --games 3 --shard 1/99999999999999999999999
# exit: 1
# stderr: is not a whole number
