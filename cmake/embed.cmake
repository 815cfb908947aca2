# Writes the file IN as a NUL-terminated C array `remat_rt_irdl_text` into OUT.
file(READ ${IN} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
file(WRITE ${OUT} "/* generated from ${IN} */\nconst char remat_rt_irdl_text[] = {${bytes} 0};\n")
