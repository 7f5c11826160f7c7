# run: tabula simulate $NIM --games 3 --jobs 100000
# exit: 1
# stderr: --jobs 100000 is too many: at most 256 threads
