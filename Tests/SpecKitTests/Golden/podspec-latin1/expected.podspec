# encoding: ISO-8859-1
Pod::Spec.new do |s|
  s.name    = 'CaféKit'
  s.version = '1.2.0'
  s.authors = { 'José Müller' => 'jose@example.com' }
  s.summary = 'Crêpes, cafés'
  s.dependency 'Core', '1.0.1' # pour le café
end
