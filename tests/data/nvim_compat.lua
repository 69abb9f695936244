-- Neovim 0.7 (Debian 12's) has no vim.lsp.start: the same from the older API, so the README's
-- snippet (for 0.8 and newer) runs unchanged on the editor the test machine has.
if not vim.lsp.start then
  local started = {}
  vim.lsp.start = function(config)
    local key = config.name .. "\0" .. config.root_dir
    started[key] = started[key] or vim.lsp.start_client(config)
    vim.lsp.buf_attach_client(0, started[key])
    return started[key]
  end
end
