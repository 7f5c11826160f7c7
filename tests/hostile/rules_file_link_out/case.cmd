# a file of the ruleset that is a link leading out was read
# run: tabula check ruleset
# exit: 1
# stderr: tabula::path_outside
# stderr: is a link leading outside the ruleset
# absent: root:
# link: ruleset/out.yaml -> /etc/passwd
