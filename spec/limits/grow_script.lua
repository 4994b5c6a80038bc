-- A script that allocates forever, in a coroutine.
io.write("started\n")
io.flush()
local kept = {}
local co = coroutine.wrap(function()
  while true do kept[#kept + 1] = ("%d"):format(#kept) .. "." end
end)
co()
