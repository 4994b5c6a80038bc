-- A runaway script.
io.write("started\n")
io.flush()
local n = 0
while true do n = n + 1 end
