# run: tabula simulate $NIM --seed=-1
# exit: 2
# stderr: invalid value
