# run: tabula simulate $NIM --games 3 --shard 0/0
# exit: 1
# stderr: bad --shard `0/0`: n must be at least 1
