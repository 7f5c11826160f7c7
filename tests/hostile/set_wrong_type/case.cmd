# run: tabula simulate $NIM --games 3 --set start=true
# exit: 1
# stderr: tabula::type_mismatch
# stderr: parameter `start` is of type int
