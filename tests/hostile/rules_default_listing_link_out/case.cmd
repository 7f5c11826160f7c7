# without `files`, every file of the directory is read, a link leading out was followed
# run: tabula check ruleset
# exit: 1
# stderr: tabula::path_outside
# stderr: is a link leading outside the ruleset
# absent: root:
# link: ruleset/passwd.yaml -> /etc/passwd
