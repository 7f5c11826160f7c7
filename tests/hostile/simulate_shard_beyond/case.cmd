# run: tabula simulate $NIM --games 3 --shard 3/2
# exit: 1
# stderr: bad --shard `3/2`: i counts from 1 and must be between 1 and 2
