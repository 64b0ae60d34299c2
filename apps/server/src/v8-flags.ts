import v8 from 'node:v8';

// Imported first by main.ts, before the server allocates anything.
//
// V8 "pretenures" objects whose allocation site saw many of them survive a young-generation GC: it
// allocates them straight in the old generation from then on. Under load a server's request objects
// survive a scavenge only because the requests were in flight at that moment, yet V8 may decide to
// pretenure them; then every request's garbage goes to the old generation, which grows page by page
// (an mmap, 64 page faults and a munmap per 256 KiB) and needs full mark-compacts. Measured
// (npm run bench, identifier lookups at 50 connections): about two starts in five fell into that
// state and served 25 000 instead of 38 000 req/s for as long as the process lived. With
// pretenuring off, request garbage always dies young: 8 of 8 starts at the full rate.
v8.setFlagsFromString('--no-allocation-site-pretenuring');
