// Row 9's reference: a script that does nothing but say it is ready, under the same launcher.

console.log(JSON.stringify({ ready: true }));
