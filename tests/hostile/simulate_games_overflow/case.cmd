# run: tabula simulate $NIM --games 18446744073709551616
# exit: 2
# stderr: invalid value
