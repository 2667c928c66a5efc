// Row 9's reference: a script that does nothing but say it is ready, under the same launcher as
// the first start (plain node, CommonJS, as Electron loads the app's main bundle).

const cpu = process.cpuUsage();
console.log(JSON.stringify({ ready: true, cpuMs: (cpu.user + cpu.system) / 1000 }));
