# run: tabula simulate $NIM --games -1
# exit: 2
# stderr: unexpected argument
