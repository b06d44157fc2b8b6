import mkdocs_gen_files
with mkdocs_gen_files.open("performance.md", "w") as out:
    out.write("# Performance\n")
