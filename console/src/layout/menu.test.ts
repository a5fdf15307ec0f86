import { describe, expect, it } from 'vitest';
import { menuFor } from './menu';

describe('menuFor', () => {
  it('maps list and detail pages to their menu entry', () => {
    expect(menuFor('/')).toBe('home');
    expect(menuFor('/home')).toBe('home');
    expect(menuFor('/users')).toBe('users');
    expect(menuFor('/users/abc')).toBe('users');
    expect(menuFor('/order/12')).toBe('orders');
    expect(menuFor('/test/7')).toBe('tests');
    expect(menuFor('/patient/3')).toBe('patients');
    expect(menuFor('/box')).toBe('box');
  });
  it('leaves pages outside the menu alone', () => {
    expect(menuFor('/login')).toBeNull();
    expect(menuFor('/tac')).toBeNull();
    expect(menuFor('/ordersx')).toBeNull();
  });
});
