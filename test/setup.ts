// A Node warning in a test process is a bug to fix, not noise (execa's fixtures-directory habit).
process.on('warning', warning => {
  throw warning;
});
