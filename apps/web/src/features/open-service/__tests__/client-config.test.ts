import { describe, expect, it } from 'vitest';
import { clientGuides } from '../lib/client-config';
import { ERP } from './fixtures';

const guides = clientGuides({
  name: ERP.name,
  service: 'https://erp-backup.hengyue.example/app/',
  logoutUrl: '',
  attributes: ['name', 'email', 'number'],
  integration: { ...ERP.integration, casServerUrlPrefix: 'https://portal.example.com/cas/' },
});
const file = (key: string, name: string) => guides.find((g) => g.key === key)!.files.find((f) => f.name === name)!.code;

describe('client configuration built from an application', () => {
  it('offers Java (Spring Boot), Node.js and Python', () => {
    expect(guides.map((g) => g.label)).toEqual(['Java · Spring Boot', 'Node.js · Express', 'Python · Django', 'Python · Flask']);
  });

  it("Spring Boot: cas-client-support-springboot's properties with the CAS prefix and the service's origin", () => {
    const yaml = file('java', 'application.yml');
    expect(yaml).toContain('server-url-prefix: https://portal.example.com/cas\n');
    expect(yaml).toContain('server-login-url: https://portal.example.com/cas/login');
    expect(yaml).toContain('client-host-url: https://erp-backup.hengyue.example\n');
    expect(yaml).toContain('validation-type: CAS3');
    expect(yaml).toMatch(/single-logout:\n {4}enabled: true/);
    expect(file('java', 'application.properties')).toContain('cas.client-host-url=https://erp-backup.hengyue.example');
    expect(file('java', 'pom.xml')).toContain('<artifactId>cas-client-support-springboot</artifactId>');
    // The attributes the application receives are read by name.
    expect(file('java', 'Application.java')).toContain('principal.getAttributes().get("number")');
  });

  it('Node.js: one service address for login and /p3/serviceValidate; single logout at the service path when no 注销地址', () => {
    const code = file('node', 'server.mjs');
    expect(code).toContain('const CAS = "https://portal.example.com/cas";');
    expect(code).toContain('const SERVICE = "https://erp-backup.hengyue.example/app/";');
    expect(code).toContain('/p3/serviceValidate?service=');
    expect(code).toContain('app.post("/app/", ');
  });

  it('Python: the server URL ends with a slash (python-cas joins paths to it)', () => {
    expect(file('python-django', 'settings.py')).toContain('CAS_SERVER_URL = "https://portal.example.com/cas/"');
    expect(file('python-django', 'settings.py')).toContain('CAS_ROOT_PROXIED_AS = "https://erp-backup.hengyue.example"');
    expect(file('python-django', 'settings.py')).toContain("CAS_RENAME_ATTRIBUTES = {'name': 'first_name', 'email': 'email'}");
    const flask = file('python-flask', 'app.py');
    expect(flask).toContain('server_url="https://portal.example.com/cas/"');
    expect(flask).toContain('service_url="https://erp-backup.hengyue.example/app/"');
    expect(flask).toContain('version=3');
  });
});
