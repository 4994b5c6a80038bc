# cmake -DIN=FILE -DOUT=HEADER -DNAME=IDENT -P embed_bytecode.cmake
# Writes HEADER declaring `static const unsigned char IDENT[]`, the bytes of FILE
# (precompiled Lua the host loads instead of compiling the source at start-up).
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" digits)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
math(EXPR size "${digits} / 2")
file(WRITE "${OUT}" "/* Generated from ${IN} by embed_bytecode.cmake: do not edit. */\n"
  "static const unsigned char ${NAME}[${size}] = {\n${bytes}\n};\n")
