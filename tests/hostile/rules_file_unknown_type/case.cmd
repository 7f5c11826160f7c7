# a file of another type was read in full before its type was checked
# run: tabula check ruleset
# exit: 1
# stderr: tabula::unknown_file_type
# stderr: is neither a .yaml nor a .rules file
# absent: secret notes
